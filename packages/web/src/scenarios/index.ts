export { ScenariosPanel } from "./ScenariosPanel.js";
