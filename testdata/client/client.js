import "./style.css";
document.querySelector("#n").textContent = String(1 + 1);
