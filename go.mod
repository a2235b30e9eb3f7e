module github.com/devtools-mcp/devtools-mcp

go 1.26

require (
	github.com/coder/websocket v1.8.15
	github.com/google/jsonschema-go v0.4.3
)
