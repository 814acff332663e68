package capture

import (
	"errors"
	"time"

	"github.com/go-rod/rod"
)

// SetAfterNavigate installs (or, with nil, removes) a function run once a
// page's navigation has started: the tests crash a tab with it.
func SetAfterNavigate(br *Browser, f func(p *rod.Page, url string)) {
	if f == nil {
		br.afterNav.Store(nil)
		return
	}
	br.afterNav.Store(&f)
}

// SpareDeadline waits for the spare tab (Start opens one) and returns the
// deadline of its page's session context, if it has one.
func SpareDeadline(br *Browser) (time.Time, bool, error) {
	br.mu.Lock()
	s := br.spare
	br.mu.Unlock()
	if s == nil {
		return time.Time{}, false, errors.New("no spare tab")
	}
	<-s.done
	if s.err != nil {
		return time.Time{}, false, s.err
	}
	d, ok := s.t.page.GetContext().Deadline()
	return d, ok, nil
}
