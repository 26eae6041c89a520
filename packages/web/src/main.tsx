import { startApp } from "./app/index.js";
import "./app/shell.css";

void startApp();
