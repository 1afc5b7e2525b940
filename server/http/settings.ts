/** GET /settings (spec/protocols.md §6.1): what the console and the ILP clients bootstrap from. */

export const RELEASE_VERSION = "9.0.0";

export function settingsBody(extra: Record<string, unknown> = {}, maxFileNameLength = 127): string {
  // Byte-exact with QuestDB's OSS reply, including the spaces inside the two string arrays.
  let config = `"release.type":"OSS","release.version":"${RELEASE_VERSION}","http.settings.readonly":false,` +
    `"accepting.writes":["http", "tcp", "pgwire"],"line.proto.support.versions":[1,2,3],` +
    `"ilp.proto.transports":["tcp", "http"],"posthog.enabled":false,"posthog.api.key":null,` +
    `"cairo.max.file.name.length":${maxFileNameLength}`;
  for (const [k, v] of Object.entries(extra)) config += `,${JSON.stringify(k)}:${JSON.stringify(v ?? null)}`;
  return `{"config":{${config}},"preferences.version":0,"preferences":{}}`;
}
