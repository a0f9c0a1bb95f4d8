"""Server/bench-webhooks' receiver: answers every POST 204 as fast as one Python process can
(asyncio, HTTP/1.1 keep-alive, no verification: the tests verify signatures), and counts them.

    python3 webhook-sink.py PORT COUNT_FILE
Writes the number of requests answered to COUNT_FILE every 0.5 s.
"""

import asyncio
import sys

port = int(sys.argv[1])
count_file = sys.argv[2]
answered = 0
ANSWER = b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n"


class Sink(asyncio.Protocol):
    def connection_made(self, transport):
        self.transport = transport
        self.buffer = b""

    def data_received(self, data):
        global answered
        self.buffer += data
        while True:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            head = self.buffer[:end].lower()
            start = head.find(b"content-length:")
            length = int(head[start + 15:head.find(b"\r\n", start) if head.find(b"\r\n", start) > 0 else None]) if start >= 0 else 0
            if len(self.buffer) < end + 4 + length:
                return
            self.buffer = self.buffer[end + 4 + length:]
            answered += 1
            self.transport.write(ANSWER)


async def report():
    while True:
        with open(count_file, "w") as file:
            file.write(str(answered))
        await asyncio.sleep(0.5)


async def main():
    loop = asyncio.get_running_loop()
    server = await loop.create_server(Sink, "127.0.0.1", port, backlog=1024)
    print("listening", flush=True)
    await asyncio.gather(server.serve_forever(), report())


asyncio.run(main())
