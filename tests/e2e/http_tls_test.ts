/**
 * HTTPS on the REST/console port (issue 10): with `http.tls.enabled` and a certificate the
 * server serves /exec over TLS to a client that trusts the test CA, refuses nothing else it
 * used to serve, and a client that does not trust the certificate fails the handshake.
 */
import assert from "node:assert/strict";
import { startServer } from "./server_process.ts";
import { makeTestCert } from "./clients/test_certs.ts";

Deno.test({
  name: "REST /exec over https with http.tls.* and a custom CA",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const cert = await makeTestCert();
    const server = await startServer({
      env: {
        QDB_HTTP_TLS_ENABLED: "true",
        QDB_HTTP_TLS_CERT_PATH: cert.certPath,
        QDB_HTTP_TLS_PRIVATE_KEY_PATH: cert.keyPath,
      },
    });
    const client = Deno.createHttpClient({ caCerts: [cert.ca] });
    try {
      assert.match(server.httpUrl, /^https:\/\//);
      // The certificate names localhost and 127.0.0.1; either host works.
      const url = server.httpUrl;
      const create = await fetch(
        `${url}/exec?query=${encodeURIComponent("create table tls_t (x long, ts timestamp) timestamp(ts)")}`,
        { client },
      );
      assert.equal(create.status, 200, await create.clone().text());
      await create.body?.cancel();
      const res = await fetch(
        `${url}/exec?query=${encodeURIComponent("select sum(x) s from long_sequence(10)")}`,
        { client },
      );
      assert.equal(res.status, 200);
      const body = await res.json();
      assert.deepEqual(body.dataset, [[55]]);

      // The health port is not configured for TLS and stays plain http.
      assert.match(server.healthUrl, /^http:\/\//);
      const health = await fetch(server.healthUrl);
      assert.equal(await health.text(), "Status: Healthy");

      // Without the CA the certificate is not trusted.
      await assert.rejects(fetch(`${url}/exec?query=select%201`));
      // Plain http on the TLS port does not get an answer.
      await assert.rejects(fetch(`${url.replace("https:", "http:")}/exec?query=select%201`));
    } finally {
      client.close();
      await server.stop();
      await Deno.remove(cert.dir, { recursive: true });
    }
  },
});
