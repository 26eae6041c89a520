// The model relay, run by the host's node inside the deep agent's bubblewrap container (which has no network
// but its own loopback): it listens on 127.0.0.1:PORT and joins every connection to the host's model gate, the
// one unix socket SOCKET bound into the container; it connects to nothing else. Once listening it runs COMMAND
// (Claude Code) with the same stdin, stdout and stderr, and exits as it does; the container ends with it.
// Usage: node model-relay.mjs SOCKET PORT COMMAND [ARG...]
// It never writes to stdout, which is Claude Code's channel to the SDK.
import { spawn } from "node:child_process";
import { connect, createServer } from "node:net";
import { constants } from "node:os";

const [socket, port, command, ...args] = process.argv.slice(2);
if (socket === undefined || port === undefined || command === undefined) {
  process.stderr.write("usage: node model-relay.mjs SOCKET PORT COMMAND [ARG...]\n");
  process.exit(2);
}

const server = createServer((client) => {
  const gate = connect(socket);
  const end = () => {
    client.destroy();
    gate.destroy();
  };
  client.on("error", end).on("close", end);
  gate.on("error", end).on("close", end);
  client.pipe(gate);
  gate.pipe(client);
});

server.on("error", (error) => {
  process.stderr.write(`karenina model relay: cannot listen on 127.0.0.1:${port}: ${error.message}\n`);
  process.exit(125);
});

server.listen(Number(port), "127.0.0.1", () => {
  const child = spawn(command, args, { stdio: "inherit" });
  child.on("error", (error) => {
    process.stderr.write(`karenina model relay: cannot start ${command}: ${error.message}\n`);
    process.exit(127);
  });
  child.on("exit", (code, signal) => {
    process.exit(code ?? 128 + (signal === null ? 0 : (constants.signals[signal] ?? 0)));
  });
});
