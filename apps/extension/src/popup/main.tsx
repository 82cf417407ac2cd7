import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import "./popup.css";

const root = document.getElementById("root");
if (!root) throw new Error("popup.html has no #root");
// Opened as a popup the page is narrow; in a window or tab of its own it may use more room.
document.documentElement.classList.toggle(
  "in-window",
  new URLSearchParams(location.search).has("tab") || window.innerWidth > 600,
);
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
