import { missing } from "./missing.js";
globalThis.render = () => missing();
