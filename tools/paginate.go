package tools

import "fmt"

// defaultPageSize is the page size when only pageIdx is given.
const defaultPageSize = 20

// paginate returns the slice of items for pageSize/pageIdx and writes the
// "Showing a-b of n (Page x of y)." header. Without either, every item is
// shown. An out-of-range page shows the first one and says so.
func paginate[T any](c *Call, items []T, p pageArgs) ([]T, error) {
	pageSize, pageIdx := p.PageSize, p.PageIdx
	if pageSize < 0 || pageIdx < 0 {
		return nil, fmt.Errorf("pageSize and pageIdx must be 0 or more (got %d and %d); pageIdx counts from 0", pageSize, pageIdx)
	}
	if pageSize == 0 && pageIdx == 0 {
		if len(items) > 0 {
			c.Resp.Linef("Showing 1-%d of %d (Page 1 of 1).", len(items), len(items))
		}
		c.Resp.Set("pagination", pagination{CurrentPage: 0, TotalPages: 1, EndIndex: len(items)})
		return items, nil
	}
	if pageSize == 0 {
		pageSize = defaultPageSize
	}
	pages := max(1, (len(items)+pageSize-1)/pageSize)
	invalid := pageIdx >= pages
	if invalid {
		c.Resp.Linef("Invalid page number %d: there are %d pages. Showing the first page.", pageIdx, pages)
		pageIdx = 0
	}
	start := pageIdx * pageSize
	end := min(start+pageSize, len(items))
	c.Resp.Set("pagination", pagination{CurrentPage: pageIdx, TotalPages: pages, HasNextPage: pageIdx+1 < pages,
		HasPreviousPage: pageIdx > 0, StartIndex: start, EndIndex: end, InvalidPage: invalid})
	if start < end {
		c.Resp.Linef("Showing %d-%d of %d (Page %d of %d).", start+1, end, len(items), pageIdx+1, pages)
	}
	return items[start:end], nil
}

// pageArgs are the pagination arguments list tools take.
type pageArgs struct {
	PageSize int `json:"pageSize,omitempty" bound:"page" jsonschema:"Items per page (default: all, or 20 when pageIdx is given)."`
	PageIdx  int `json:"pageIdx,omitempty" bound:"page" jsonschema:"0-based page number."`
}
