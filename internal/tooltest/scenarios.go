package tooltest

// Scenarios are the recorded tool sessions, one recording each.
func Scenarios() []Scenario {
	return []Scenario{
		navigation(),
	}
}

// navigation opens, lists, selects and closes pages, and navigates one.
func navigation() Scenario {
	return Scenario{Name: "navigation", Steps: []Step{
		{Tool: "list_pages"},
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/common.html"}`},
		{Tool: "new_page", Args: `{"url":"{{site}}/pages/form.html"}`},
		{Tool: "list_pages"},
		{Tool: "select_page", Args: `{"pageId":1}`},
		{Tool: "navigate_page", Args: `{"type":"reload"}`},
		{Tool: "navigate_page", Args: `{"url":"{{site}}/pages/form.html"}`},
		{Tool: "navigate_page", Args: `{"type":"back"}`},
		{Tool: "navigate_page", Args: `{"type":"forward"}`},
		{Tool: "close_page", Args: `{"pageId":2}`},
		{Tool: "close_page", Args: `{"pageId":7}`, Error: true},
		{Tool: "list_pages"},
	}}
}
