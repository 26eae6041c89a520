export { ResultDeepLink } from "./ResultDeepLink.js";
export { ResultDetail } from "./ResultDetail.js";
export { ResultDetailDialog, type ResultDetailDialogProps } from "./ResultDetailDialog.js";
export {
  hashWithoutResult,
  type ResultLink,
  resultLinkHash,
  resultLinkOf,
  resultPath,
} from "./result-path.js";
