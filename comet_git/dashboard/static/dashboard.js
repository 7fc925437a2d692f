// The Dashboard works without JavaScript; this only adds conveniences.
// Buttons of a form being sent are disabled, so that a double click does not write twice.
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (form.method.toLowerCase() === "post") {
    for (const button of form.querySelectorAll("button")) button.disabled = true;
  }
});
