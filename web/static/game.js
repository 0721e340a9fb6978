// The game page without reloading: boards zoom with their buttons, and the slider shows the chosen
// turn's board, summary and orders (the page works without this script: the form asks for ?turn=N).
"use strict";

function zoomable(box) {
  const image = box.querySelector("img");
  let scale = 1;
  box.querySelectorAll("[data-zoom-step]").forEach((button) => {
    button.addEventListener("click", () => {
      const step = Number(button.dataset.zoomStep);
      scale = step === 0 ? 1 : Math.min(4, Math.max(1, scale + step * 0.5));
      image.style.width = scale * 100 + "%";
    });
  });
}

function fill(list, lines) {
  list.replaceChildren(...lines.map((line) => {
    const item = document.createElement("li");
    item.innerHTML = line; // already escaped by the site: only <strong> and <code> are in it
    return item;
  }));
}

function slider(form) {
  const range = form.querySelector("input[type=range]");
  const shown = document.getElementById("turn-number");
  const board = document.getElementById("turn-board");
  let asked = 0;
  form.querySelector("button.show").hidden = true;
  form.addEventListener("submit", (event) => event.preventDefault());
  range.addEventListener("input", async () => {
    const number = Number(range.value);
    const mine = ++asked;
    shown.textContent = number;
    const answer = await fetch(form.dataset.turns + number + ".json");
    if (!answer.ok || mine !== asked) return;
    const turn = await answer.json();
    if (mine !== asked) return; // the slider moved on meanwhile
    document.getElementById("turn-heading").innerHTML = turn.heading;
    board.src = turn.board;
    board.alt = turn.alt;
    fill(document.getElementById("turn-lines"), turn.lines);
    fill(document.getElementById("turn-orders"), turn.orders);
    history.replaceState(null, "", "?turn=" + number);
  });
}

function localTimes() {
  document.querySelectorAll("time[datetime]").forEach((time) => {
    const at = new Date(time.getAttribute("datetime"));
    if (!Number.isNaN(at.getTime())) time.textContent = at.toLocaleString(document.documentElement.lang, { dateStyle: "medium", timeStyle: "short" });
  });
}

document.querySelectorAll("[data-zoom]").forEach(zoomable);
document.querySelectorAll("form.slider").forEach(slider);
localTimes();
