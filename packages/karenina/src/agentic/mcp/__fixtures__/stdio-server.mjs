// A hand-written MCP test server over stdio: `node stdio-server.mjs [PID_FILE]` writes its pid to PID_FILE.
import { writeFileSync } from "node:fs";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { geneToolsServer } from "./gene-tools.mjs";

const [pidFile] = process.argv.slice(2);
if (pidFile) writeFileSync(pidFile, String(process.pid));
await geneToolsServer("stdio-genes").connect(new StdioServerTransport());
