/** GET /settings (spec/protocols.md §6.1): what the console and the ILP clients bootstrap from. */

export const RELEASE_VERSION = "9.0.0";

export function settingsBody(extra: Record<string, unknown> = {}, maxFileNameLength = 127): string {
  // Byte-exact with QuestDB's OSS reply, including the spaces inside the two string arrays.
  // With access control on, server/auth passes "release.type":"EE" and the acl.* keys (security.md §6.2).
  const releaseType = typeof extra["release.type"] === "string" ? extra["release.type"] : "OSS";
  let config =
    `"release.type":${
      JSON.stringify(releaseType)
    },"release.version":"${RELEASE_VERSION}","http.settings.readonly":false,` +
    `"accepting.writes":["http", "tcp", "pgwire"],"line.proto.support.versions":[1,2,3],` +
    `"ilp.proto.transports":["tcp", "http"],"posthog.enabled":false,"posthog.api.key":null,` +
    `"cairo.max.file.name.length":${maxFileNameLength}`;
  for (const [k, v] of Object.entries(extra)) {
    if (k !== "release.type") config += `,${JSON.stringify(k)}:${JSON.stringify(v ?? null)}`;
  }
  return `{"config":{${config}},"preferences.version":0,"preferences":{}}`;
}
