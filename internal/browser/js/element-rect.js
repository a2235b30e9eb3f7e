// Scrolls the element into view when it is not, and returns
// its border box in its frame's viewport.
function() {
  this.scrollIntoView({block: 'nearest', inline: 'nearest'});
  const r = this.getBoundingClientRect();
  return {x: r.left, y: r.top, width: r.width, height: r.height};
}
