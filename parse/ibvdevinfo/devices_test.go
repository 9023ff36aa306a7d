package ibvdevinfo

import (
	"errors"
	"testing"

	"github.com/provadev/prova/parse"
)

func TestParseDevicesSpaces(t *testing.T) {
	res, err := ParseDevices(sections(t, "ibv_devinfo/ibv_devices-mlx4-and-irdma.txt")[0])
	if err != nil {
		t.Fatal(err)
	}
	want := []ListedDevice{{"mlx4_0", "0002c90300b382a0"}, {"irdma0", "ae1f6bfffeec331c"}, {"irdma1", "ae1f6bfffeec331d"}}
	if res.NoDevice || len(res.Devices) != len(want) {
		t.Fatalf("got %+v", res)
	}
	for i := range want {
		if res.Devices[i] != want[i] {
			t.Errorf("row %d: got %+v want %+v", i, res.Devices[i], want[i])
		}
	}
}

func TestParseDevicesTabs(t *testing.T) {
	res, err := ParseDevices(sections(t, "ibv_devinfo/ibv_devinfo-rxe0-softroce.txt")[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Devices) != 1 || res.Devices[0] != (ListedDevice{"rxe0", "020c29fffe55c818"}) {
		t.Errorf("got %+v", res)
	}
}

func TestParseDevicesNoHCA(t *testing.T) {
	res, err := ParseDevices(sections(t, "ibv_devinfo/no-hca-ibv_devices.txt")[0])
	if err != nil {
		t.Fatal(err)
	}
	if !res.NoDevice || res.Message == "" {
		t.Errorf("got %+v", res)
	}
	// Header only: the tool ran but found nothing.
	res, err = ParseDevices([]byte("    device          \t   node GUID\n    ------          \t----------------\n"))
	if err != nil || !res.NoDevice || res.Message != "" {
		t.Errorf("header only: %+v %v", res, err)
	}
}

func TestParseDevicesGarbageRow(t *testing.T) {
	in := "    device                 node GUID\n    ------              ----------------\n    mlx4_0              0002c90300b382a0\n    mlx4_1              not-a-guid\n"
	_, err := ParseDevices([]byte(in))
	var pe *parse.Error
	if !errors.As(err, &pe) || pe.Tool != "ibv_devices" || pe.Line != 4 {
		t.Errorf("got %v", err)
	}
}

func FuzzParseDevices(f *testing.F) {
	for _, rel := range []string{
		"ibv_devinfo/ibv_devices-mlx4-and-irdma.txt",
		"ibv_devinfo/ibv_devinfo-rxe0-softroce.txt",
		"ibv_devinfo/no-hca-ibv_devices.txt",
	} {
		f.Add(sections(f, rel)[0])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := ParseDevices(data)
		checkResult(t, err, res != nil)
	})
}
