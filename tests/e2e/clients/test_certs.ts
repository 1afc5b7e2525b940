/**
 * A throwaway CA and a server certificate for `localhost` / 127.0.0.1 it signed, made with
 * openssl at test time (nothing secret is checked in). Two certificates, not one self-signed:
 * rustls (Deno's fetch) refuses a CA certificate used as the server's own.
 */
import { requireCommand } from "./pg_tools.ts";

export interface TestCert {
  dir: string;
  /** The server certificate (PEM file). */
  certPath: string;
  /** Its private key (PEM file). */
  keyPath: string;
  /** The CA certificate file the clients trust. */
  caPath: string;
  /** PEM text of the CA certificate. */
  ca: string;
}

async function openssl(args: string[]): Promise<void> {
  const out = await new Deno.Command("openssl", { args, stdout: "null", stderr: "piped" }).output();
  if (!out.success) throw new Error(`openssl ${args[0]} failed: ${new TextDecoder().decode(out.stderr)}`);
}

export async function makeTestCert(): Promise<TestCert> {
  await requireCommand("openssl", "openssl");
  const dir = await Deno.makeTempDir({ prefix: "qdb_tls_" });
  const caPath = `${dir}/ca.pem`, caKey = `${dir}/ca.key`;
  const certPath = `${dir}/cert.pem`,
    keyPath = `${dir}/key.pem`,
    csr = `${dir}/server.csr`,
    ext = `${dir}/ext.cnf`;
  await openssl([
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-days",
    "2",
    "-subj",
    "/CN=qdb test CA",
    "-keyout",
    caKey,
    "-out",
    caPath,
  ]);
  await openssl([
    "req",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-subj",
    "/CN=localhost",
    "-keyout",
    keyPath,
    "-out",
    csr,
  ]);
  await Deno.writeTextFile(
    ext,
    "basicConstraints=CA:FALSE\nsubjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n",
  );
  await openssl([
    "x509",
    "-req",
    "-in",
    csr,
    "-CA",
    caPath,
    "-CAkey",
    caKey,
    "-CAcreateserial",
    "-days",
    "2",
    "-extfile",
    ext,
    "-out",
    certPath,
  ]);
  return { dir, certPath, keyPath, caPath, ca: await Deno.readTextFile(caPath) };
}
