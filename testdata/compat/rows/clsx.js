// clsx: class name composition.
import clsx from "clsx";
globalThis.render = () => clsx("a", { b: true, c: false }, ["d", ["e", { f: 1 }]], null, 0, "g");
