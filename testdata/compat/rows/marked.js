// marked: Markdown to HTML.
import { marked } from "marked";
globalThis.render = () => marked.parse("# Teas\n\n*Green* & **black**, `code`\n\n- one\n- two <b>\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n> quote [link](https://bext.dev)\n");
