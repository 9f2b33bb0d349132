"""A stand-in for ``python -m llama_cpp.server``: answers ``/v1/models`` with the alias it was
given, on the port it was given, and writes its pid to ``$FAKE_SERVER_PID`` (no model)."""

from __future__ import annotations

import json
import os
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer


def main(argv: list[str]) -> None:
    options = dict(zip(argv[2::2], argv[3::2], strict=False))  # after "-m llama_cpp.server"
    body = json.dumps({"data": [{"id": options["--model_alias"]}]}).encode()

    class Models(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200 if self.path == "/v1/models" else 404)
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = HTTPServer((options["--host"], int(options["--port"])), Models)
    with open(os.environ["FAKE_SERVER_PID"], "w", encoding="utf-8") as out:
        out.write(str(os.getpid()))
    server.serve_forever()


if __name__ == "__main__":
    main(sys.argv[1:])
