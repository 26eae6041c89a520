export { ownValue, PROTO_KEY, setOwn } from "./own-keys.js";
