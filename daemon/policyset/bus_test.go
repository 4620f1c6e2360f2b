package policyset

import (
	"reflect"
	"testing"
)

func TestBusPathsReadsDBusAddresses(t *testing.T) {
	for _, tc := range []struct {
		address string
		want    []string
	}{
		{"unix:path=/run/user/1000/bus", []string{"/run/user/1000/bus"}},
		{"unix:path=/tmp/dbus%2dx,guid=abc", []string{"/tmp/dbus-x"}},
		{"unix:abstract=/tmp/dbus-Xy,guid=1;unix:path=/run/bus2", []string{"/run/bus2"}},
		{"tcp:host=127.0.0.1,port=5", nil},
		{"unix:path=relative", nil},
		{"", nil},
	} {
		if got := busPaths(tc.address); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("busPaths(%q) = %q, want %q", tc.address, got, tc.want)
		}
	}
}
