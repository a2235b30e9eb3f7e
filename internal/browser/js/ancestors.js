// Describes the element and its ancestors in the flat tree
// (through shadow roots and slots), nearest first.
function() {
  const desc = e => e.localName + (e.id ? '#' + e.id : '') + [...e.classList].map(c => '.' + c).join('');
  const parent = e => e.assignedSlot || e.parentElement || (e.parentNode && e.parentNode.host) || null;
  const up = [];
  for (let n = parent(this); n; n = parent(n)) up.push(desc(n));
  return {self: desc(this), ancestors: up};
}
