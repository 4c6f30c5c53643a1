import path from "node:path";
import { projectRoot } from "./database";

/** Node arguments that run the web server (`npm start`); append its own options after them. */
export const serverCommand = [
  "--conditions=react-server",
  "--import",
  "tsx",
  path.join(projectRoot, "scripts/server.ts"),
];
