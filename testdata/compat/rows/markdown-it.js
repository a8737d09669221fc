// markdown-it: Markdown to HTML (with linkify and typographer).
import MarkdownIt from "markdown-it";
const md = new MarkdownIt({ linkify: true, typographer: true });
globalThis.render = () => md.render("# Teas — \"quoted\"\n\nVisit https://bext.dev (c) 2026...\n\n1. one\n2. two\n\n```js\nconst a = 1 < 2;\n```\n");
