/**
 * A throwaway certificate authority and a server certificate for localhost / 127.0.0.1, made with openssl at
 * the start of a test run (test/global-setup.mjs), for the HTTPS Graph fake. The server under test trusts the
 * authority the standard way, NODE_EXTRA_CA_CERTS, which Node reads when a process starts: global setup sets
 * it before Jest starts its workers, and child processes (CLI runs, server processes) inherit it.
 *
 * Plain JavaScript: global setup runs under Node's own loader, before ts-jest.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const DAYS = '2';

function openssl(args, cwd) {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** Makes ca.pem, server.pem and server.key in `dir`; returns their paths. */
export function makeTestCertificates(dir) {
  mkdirSync(dir, { recursive: true });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(
    [
      'req',
      '-x509',
      ...ec,
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      DAYS,
      '-subj',
      '/CN=MSP test Graph fake CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ],
    dir,
  );
  openssl(['req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost'], dir);
  writeFileSync(
    path.join(dir, 'server.ext'),
    'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n' +
      'subjectAltName=DNS:localhost,IP:127.0.0.1\n',
  );
  openssl(
    [
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'server.pem',
      '-days',
      DAYS,
      '-extfile',
      'server.ext',
    ],
    dir,
  );
  return {
    ca: path.join(dir, 'ca.pem'),
    cert: path.join(dir, 'server.pem'),
    key: path.join(dir, 'server.key'),
  };
}

/**
 * Makes the certificates and trusts their authority in every process started from now on: NODE_EXTRA_CA_CERTS
 * points at a bundle of the authority and whatever file it named before (Node reads one file).
 */
export function trustTestCertificates(dir) {
  const files = makeTestCertificates(dir);
  const bundle = path.join(dir, 'extra-ca-bundle.pem');
  const before = process.env.NODE_EXTRA_CA_CERTS ? readFileSync(process.env.NODE_EXTRA_CA_CERTS, 'utf8') : '';
  writeFileSync(bundle, `${before.trimEnd()}\n${readFileSync(files.ca, 'utf8')}`.trimStart());
  process.env.NODE_EXTRA_CA_CERTS = bundle;
  process.env.GRAPH_FAKE_CERT_DIR = dir;
  return files;
}
