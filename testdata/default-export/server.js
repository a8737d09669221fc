export default function render(req) {
  return "<p>default export " + req.method + " " + req.url + "</p>";
}
