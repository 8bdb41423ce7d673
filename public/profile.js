// The /@tag page's one script (its CSP allows scripts from this origin only): copy buttons.
// A button with data-copy copies that text and says so in the live region after it.
document.addEventListener('click', async (event) => {
  const button = event.target instanceof Element ? event.target.closest('button[data-copy]') : null;
  if (!button) return;
  const status = button.nextElementSibling;
  let copied = true;
  try {
    await navigator.clipboard.writeText(button.getAttribute('data-copy'));
  } catch {
    copied = false;
  }
  button.textContent = copied ? 'Copied' : 'Copy';
  if (status) status.textContent = copied ? 'Copied to the clipboard' : 'Could not copy; select the text instead';
  setTimeout(() => {
    button.textContent = 'Copy';
    if (status) status.textContent = '';
  }, 2000);
});
