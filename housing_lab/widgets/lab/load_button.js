// A button that opens the file chooser and sends the chosen file's text to Python.
function render({ model, el: root }) {
  root.classList.add("hl-load-button");
  const input = document.createElement("input");
  input.type = "file";
  input.hidden = true;
  input.tabIndex = -1;
  const button = document.createElement("button");
  button.type = "button";
  button.className = "jupyter-button widget-button hl-load";
  const draw = () => {
    input.accept = model.get("accept");
    button.textContent = model.get("description");
  };
  draw();
  button.addEventListener("click", () => input.click());
  input.addEventListener("change", async () => {
    const file = input.files && input.files[0];
    if (!file) return;
    model.send({ action: "upload", name: file.name, text: await file.text() });
    input.value = "";  // the same file again is a new choice
    button.focus();  // the keyboard stays on the button, never <body>
  });
  root.append(button, input);
  model.on("change:description change:accept", draw);
  return () => model.off("change:description change:accept", draw);
}

export default { render };
