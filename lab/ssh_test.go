package lab_test

import (
	"strconv"

	"golang.org/x/crypto/ssh"

	"github.com/provadev/prova/lab"
)

func sshDial(n lab.Node, cfg *ssh.ClientConfig) (*ssh.Client, error) {
	return ssh.Dial("tcp", n.Address+":"+strconv.Itoa(n.Port), cfg)
}
