"""A webhook receiver for receipt-server's tests (issue 38): verifies every request with the
Standard Webhooks library (PyPI `standardwebhooks`, pinned in Server/ci) and records it.

    python receiver.py PORT SECRETS_DIR LOG_FILE [--fail N] [--delay SECONDS]

Listens on 127.0.0.1:PORT (HTTP/1.1, keep-alive). A POST to /NAME is verified with the
`whsec_…` secret in SECRETS_DIR/NAME (one endpoint per name). Each POST is verified (`Webhook.verify`: signature, timestamp within five
minutes) and appended to LOG_FILE as one JSON line: {"id", "timestamp", "valid", "status",
"body", "received"}. It answers 500 to the first N verified requests (--fail N; -1: always),
waits --delay seconds before answering, 204 otherwise, 400 to a request that does not verify.
Prints "listening" on standard output once bound.
"""

import json
import os
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standardwebhooks.webhooks import Webhook, WebhookVerificationError

# The test process may ignore or block SIGTERM (an in-process server's signal handling), which
# a child inherits across exec: SIGTERM must end this process.
signal.signal(signal.SIGTERM, signal.SIG_DFL)
signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])
port = int(sys.argv[1])
secrets_dir = sys.argv[2]
log_path = sys.argv[3]
options = sys.argv[4:]
fail = int(options[options.index("--fail") + 1]) if "--fail" in options else 0
delay = float(options[options.index("--delay") + 1]) if "--delay" in options else 0.0
lock = threading.Lock()
failed = 0
log = open(log_path, "a", buffering=1)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        global failed
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        headers = {k: v for k, v in self.headers.items()}
        name = os.path.basename(self.path.split("?")[0])
        try:
            with open(os.path.join(secrets_dir, name)) as file:
                Webhook(file.read().strip()).verify(body, headers)
            valid = True
        except (WebhookVerificationError, ValueError, OSError) as error:
            valid = False
            sys.stderr.write(f"not verified: {error}\n")
        with lock:
            if not valid:
                status = 400
            elif fail < 0 or failed < fail:
                failed += 1
                status = 500
            else:
                status = 204
            log.write(json.dumps({
                "id": self.headers.get("webhook-id"), "timestamp": self.headers.get("webhook-timestamp"),
                "valid": valid, "status": status, "body": body.decode("utf-8", "replace"), "received": time.time(),
            }) + "\n")
        if delay:
            time.sleep(delay)
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
server.daemon_threads = True
print("listening", flush=True)
server.serve_forever()
