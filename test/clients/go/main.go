// Command client is a typed v1 client, written the way the Go v1 binding decoded answers
// (zoom-lib-golang/zoom-lib-golang, then himalayan-institute/zoom-lib-golang, at d97e69d, its last v1
// commit: webinar_type.go, user_type.go, time.go, error.go, api.go): encoding/json into structs
// whose session numbers are int, durations int minutes, times a Time that reads RFC 3339 or "",
// and the dashboard's elapsed time parsed as MM:SS or HH:MM:SS, as the nightly harvesters did
// (harvard-dce/zoom-harvester meetings.py, to_seconds). Our own program, not a copy: it runs the
// calls an integration makes against a gateway and fails on the first answer it cannot decode.
//
// Environment: V1_BASE_URL (…/v1), V1_API_KEY, V1_API_SECRET, OWNER_EMAIL, REPORT_FROM, REPORT_TO.
// It prints one JSON object of what it read, for the test to compare with the sandbox.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

// Time reads the v1 times: RFC 3339, or "" and null for none (as the binding's time.go did).
type Time struct{ time.Time }

func (t *Time) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), "\"")
	if s == "null" || s == "" {
		t.Time = time.Time{}
		return nil
	}
	parsed, err := time.Parse(time.RFC3339, s)
	t.Time = parsed
	return err
}

type apiError struct {
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

type User struct {
	Email       string `json:"email"`
	ID          string `json:"id"`
	CreatedAt   Time   `json:"created_at"`
	FirstName   string `json:"first_name"`
	Type        int    `json:"type"`
	DisableChat bool   `json:"disable_chat"`
	Verified    int    `json:"verified"`
	PMI         int    `json:"pmi"`
	EnableLarge bool   `json:"enable_large"`
	Capacity    int    `json:"meeting_capacity"`
}

type Meeting struct {
	UUID       string `json:"uuid"`
	ID         int    `json:"id"`
	HostID     string `json:"host_id"`
	Topic      string `json:"topic"`
	Type       int    `json:"type"`
	StartTime  *Time  `json:"start_time"`
	Duration   int    `json:"duration"`
	Timezone   string `json:"timezone"`
	OptionJbh  bool   `json:"option_jbh"`
	OptionHost bool   `json:"option_host_video"`
	Status     int    `json:"status"`
	CreatedAt  *Time  `json:"created_at"`
	JoinURL    string `json:"join_url"`
}

type ListMeetingsResponse struct {
	PageCount    int       `json:"page_count"`
	TotalRecords int       `json:"total_records"`
	PageNumber   int       `json:"page_number"`
	PageSize     int       `json:"page_size"`
	Meetings     []Meeting `json:"meetings"`
}

// Occurrence ids stay strings, as the binding's WebinarOccurrence.OccurrenceID.
type Occurrence struct {
	OccurrenceID string `json:"occurrence_id"`
	StartTime    *Time  `json:"start_time"`
	Duration     int    `json:"duration"`
}

type Webinar struct {
	UUID            string       `json:"uuid"`
	ID              int          `json:"id"`
	HostID          string       `json:"host_id"`
	Topic           string       `json:"topic"`
	Type            int          `json:"type"`
	StartTime       *Time        `json:"start_time"`
	Duration        int          `json:"duration"`
	RegistrationURL string       `json:"registration_url"`
	Status          int          `json:"status"`
	Occurrences     []Occurrence `json:"occurrences"`
}

type ListWebinarsResponse struct {
	PageCount    int       `json:"page_count"`
	TotalRecords int       `json:"total_records"`
	Webinars     []Webinar `json:"webinars"`
}

type RegisterResponse struct {
	RegistrantID string `json:"registrant_id"`
	WebinarID    int    `json:"id"`
	Topic        string `json:"topic"`
	StartTime    *Time  `json:"start_time"`
	JoinURL      string `json:"join_url"`
}

// An action answer quotes the number, as the live service's update and delete answers did.
type ActionResponse struct {
	ID        string `json:"id"`
	UpdatedAt *Time  `json:"updated_at"`
	DeletedAt *Time  `json:"deleted_at"`
}

type DashboardMeeting struct {
	UUID         string `json:"uuid"`
	ID           int    `json:"id"`
	StartTime    *Time  `json:"start_time"`
	EndTime      *Time  `json:"end_time"`
	Duration     string `json:"duration"`
	Participants int    `json:"participants"`
	HasVideo     bool   `json:"has_video"`
	Recording    int    `json:"recording"`
}

type DashboardResponse struct {
	TotalRecords int                `json:"total_records"`
	Meetings     []DashboardMeeting `json:"meetings"`
}

type client struct{ base, key, secret string }

// call posts the form as the binding's api.go did (PostForm, data_type=JSON) and decodes into ret.
func (c client) call(path string, params url.Values, ret interface{}) {
	params.Set("api_key", c.key)
	params.Set("api_secret", c.secret)
	params.Set("data_type", "JSON")
	resp, err := http.PostForm(c.base+path, params)
	if err != nil {
		fail("%s: %v", path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		fail("%s: %v", path, err)
	}
	var e apiError
	if err := json.Unmarshal(body, &e); err != nil {
		fail("%s: %v in %s", path, err, body)
	}
	if e.Error != nil {
		fail("%s: v1 error %d %q", path, e.Error.Code, e.Error.Message)
	}
	if err := json.Unmarshal(body, ret); err != nil {
		fail("%s: %v in %s", path, err, body)
	}
}

// toSeconds reads the dashboard's elapsed time, MM:SS or HH:MM:SS (hours may pass 23).
func toSeconds(clock string) int {
	parts := strings.Split(clock, ":")
	if len(parts) < 2 || len(parts) > 3 {
		fail("duration %q is not MM:SS or HH:MM:SS", clock)
	}
	total := 0
	for _, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || len(p) < 2 {
			fail("duration %q is not MM:SS or HH:MM:SS", clock)
		}
		total = total*60 + n
	}
	return total
}

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
	os.Exit(1)
}

func main() {
	c := client{os.Getenv("V1_BASE_URL"), os.Getenv("V1_API_KEY"), os.Getenv("V1_API_SECRET")}
	var owner User
	c.call("/user/getbyemail", url.Values{"email": {os.Getenv("OWNER_EMAIL")}}, &owner)

	var created Meeting
	c.call("/meeting/create", url.Values{
		"host_id": {owner.ID}, "type": {"2"}, "topic": {"Typed Go"},
		"start_time": {"2035-06-03T15:00:00Z"}, "duration": {"45"},
	}, &created)
	id := strconv.Itoa(created.ID)
	var got Meeting
	c.call("/meeting/get", url.Values{"id": {id}, "host_id": {owner.ID}}, &got)
	var list ListMeetingsResponse
	c.call("/meeting/list", url.Values{"host_id": {owner.ID}, "page_size": {"300"}}, &list)
	listed := false
	for _, m := range list.Meetings {
		listed = listed || m.ID == created.ID
	}
	// An update names only what changes: the meeting keeps its type.
	var updated ActionResponse
	c.call("/meeting/update", url.Values{"id": {id}, "host_id": {owner.ID}, "topic": {"Renamed by Go"}}, &updated)
	c.call("/meeting/get", url.Values{"id": {id}, "host_id": {owner.ID}}, &got)

	var webinar Webinar
	c.call("/webinar/create", url.Values{"host_id": {owner.ID}, "topic": {"Typed Go webinar"}, "approval_type": {"0"},
		"start_time": {"2035-06-03T15:00:00Z"}}, &webinar)
	var webinars ListWebinarsResponse
	c.call("/webinar/list/registration", url.Values{"host_id": {owner.ID}}, &webinars)
	var gotWebinar Webinar
	c.call("/webinar/get", url.Values{"id": {strconv.Itoa(webinar.ID)}, "host_id": {owner.ID}}, &gotWebinar)
	var registered RegisterResponse
	c.call("/webinar/register", url.Values{"id": {strconv.Itoa(webinar.ID)}, "email": {"go.registrant@example.com"},
		"first_name": {"Go"}, "last_name": {"Pher"}}, &registered)

	var dashboard DashboardResponse
	c.call("/metrics/meetings", url.Values{"type": {"2"}, "from": {os.Getenv("REPORT_FROM")}, "to": {os.Getenv("REPORT_TO")}}, &dashboard)
	durations := map[string]int{}
	for _, m := range dashboard.Meetings {
		durations[strconv.Itoa(m.ID)] = toSeconds(m.Duration)
	}

	var deleted ActionResponse
	c.call("/meeting/delete", url.Values{"id": {id}, "host_id": {owner.ID}}, &deleted)

	out, _ := json.Marshal(map[string]interface{}{
		"owner_id":           owner.ID,
		"owner_pmi":          owner.PMI,
		"meeting_id":         created.ID,
		"meeting_type":       got.Type,
		"meeting_topic":      got.Topic,
		"meeting_listed":     listed,
		"updated_id":         updated.ID,
		"deleted_id":         deleted.ID,
		"webinar_id":         webinar.ID,
		"webinar_type":       gotWebinar.Type,
		"webinars_listed":    len(webinars.Webinars),
		"registered_id":      registered.WebinarID,
		"dashboard_seconds":  durations,
		"created_at_is_time": !created.CreatedAt.IsZero(),
	})
	fmt.Println(string(out))
}
