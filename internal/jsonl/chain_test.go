package jsonl

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

// TestChainMatchesPipe runs two stages as a chain and as two piped runs and
// expects the same bytes, including the error record of a failing line.
func TestChainMatchesPipe(t *testing.T) {
	first := Stage{Name: "one", Raw: true, Transform: func(_ context.Context, l []byte) ([]byte, error) {
		if bytes.HasPrefix(l, []byte("bad")) {
			return nil, errors.New("refused")
		}
		return []byte(`{"record":"a","v":"` + string(l) + `"}`), nil
	}}
	second := Stage{Name: "two", Accept: []string{"a"}, Transform: func(_ context.Context, l []byte) ([]byte, error) {
		if bytes.Contains(l, []byte("boom")) {
			return nil, errors.New("exploded")
		}
		return append([]byte(`{"record":"b",`), l[1:]...), nil
	}}
	in := "x\nbad\nboom\ny\n"
	var mid, piped, chained bytes.Buffer
	Run(context.Background(), strings.NewReader(in), &mid, nil, first)
	Run(context.Background(), &mid, &piped, nil, second)
	res, err := Run(context.Background(), strings.NewReader(in), &chained, nil, Chain("both", first, second))
	if piped.String() != chained.String() {
		t.Fatalf("chain differs from pipe:\npipe:  %s\nchain: %s", piped.String(), chained.String())
	}
	if res.Failed != 2 || !errors.Is(err, ErrFailedLines) {
		t.Errorf("res %+v err %v", res, err)
	}
	if !strings.Contains(chained.String(), `"stage":"two"`) || !strings.Contains(chained.String(), `"stage":"one"`) {
		t.Errorf("error records do not name their stages: %s", chained.String())
	}
}
