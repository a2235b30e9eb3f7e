// When the action runs, open "clicked" next to the page it ran on, so a test
// sees the effect in list_pages.
chrome.action.onClicked.addListener((tab) => {
  chrome.tabs.create({url: new URL("clicked", tab.url).href});
});
