// `node --import <this file>`: logs every module the process resolves to the file in KARENINA_MODULE_LOG.
import { register } from "node:module";

register("./hooks.mjs", import.meta.url, { data: { logFile: process.env.KARENINA_MODULE_LOG } });
