// The browser bundle: a click counter on the footer button.
import "./client.css";

const button = document.getElementById("counter");
if (button) {
  let clicks = 0;
  button.addEventListener("click", () => {
    clicks += 1;
    button.textContent = `clicked ${clicks} time${clicks === 1 ? "" : "s"}`;
  });
}
