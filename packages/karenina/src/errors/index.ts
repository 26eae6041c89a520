export { describeValue, KareninaError } from "./karenina-error.js";
