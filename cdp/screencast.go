package cdp

// The Page domain's video recording: Chrome's own recorder, which encodes
// a video itself and hands it over as an IO stream, and the frame
// screencast, which sends each painted frame as an image for the client to
// encode.

// StartScreenRecordingParams are the parameters of Page.startScreenRecording.
// Without MaxWidth and MaxHeight Chrome scales frames down to a small
// default size; FrameRate caps the frames per second.
type StartScreenRecordingParams struct {
	MaxWidth  int `json:"maxWidth,omitempty"`
	MaxHeight int `json:"maxHeight,omitempty"`
	FrameRate int `json:"frameRate,omitempty"`
}

// ScreenRecordingResult is the reply to Page.startScreenRecording and
// Page.stopScreenRecording: the IO stream that holds the video (an MP4)
// once the recording stopped.
type ScreenRecordingResult struct {
	Stream string `json:"stream"`
}

// StartScreencastParams are the parameters of Page.startScreencast. Chrome
// sends at most MaxFramesInFlight frames before it waits for their
// Page.screencastFrameAck, which is how a slow client paces it.
type StartScreencastParams struct {
	Format            string `json:"format,omitempty"` // jpeg or png
	Quality           int    `json:"quality,omitempty"`
	MaxWidth          int    `json:"maxWidth,omitempty"`
	MaxHeight         int    `json:"maxHeight,omitempty"`
	EveryNthFrame     int    `json:"everyNthFrame,omitempty"`
	MaxFramesInFlight int    `json:"maxFramesInFlight,omitempty"`
}

// ScreencastFrameMetadata is the part of a frame's metadata we read.
// Timestamp is when the frame was swapped, in seconds since the epoch
// (absent on some frames).
type ScreencastFrameMetadata struct {
	DeviceWidth  float64 `json:"deviceWidth"`
	DeviceHeight float64 `json:"deviceHeight"`
	Timestamp    float64 `json:"timestamp,omitempty"`
}

// ScreencastFrameEvent is Page.screencastFrame: one encoded frame (base64
// on the wire), to be acknowledged with its SessionID.
type ScreencastFrameEvent struct {
	Data      []byte                  `json:"data"`
	Metadata  ScreencastFrameMetadata `json:"metadata"`
	SessionID int                     `json:"sessionId"`
}

// ScreencastFrameAckParams are the parameters of Page.screencastFrameAck.
type ScreencastFrameAckParams struct {
	SessionID int `json:"sessionId"`
}

// The Page domain's recording commands and events.
var (
	PageStartScreenRecording = Command[StartScreenRecordingParams, ScreenRecordingResult]{"Page.startScreenRecording"}
	PageStopScreenRecording  = Query[ScreenRecordingResult]{"Page.stopScreenRecording"}
	PageStartScreencast      = Command[StartScreencastParams, Empty]{"Page.startScreencast"}
	PageStopScreencast       = Action{"Page.stopScreencast"}
	PageScreencastFrameAck   = Command[ScreencastFrameAckParams, Empty]{"Page.screencastFrameAck"}
	PageScreencastFrame      = Event[ScreencastFrameEvent]{"Page.screencastFrame"}
)
