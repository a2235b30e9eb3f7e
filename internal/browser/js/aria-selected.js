// Tells whether an option is selected: aria-selected (or aria-checked) is
// "true"; null when it has neither, so that only the page knows.
function() {
  const v = this.getAttribute('aria-selected') ?? this.getAttribute('aria-checked');
  return v === null ? null : v === 'true';
}
