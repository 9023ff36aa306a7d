package sshconn

// keyword says what prova does with one ssh_config keyword.
type keyword int

const (
	kwIgnored     keyword = iota // known to OpenSSH; does not change where or how prova connects
	kwUsed                       // read by ResolveTarget
	kwUnsupported                // changes where or how ssh connects and prova cannot do it: warned once
	kwDeprecated                 // OpenSSH accepts it with a warning ("Unsupported option")
)

// keywords is every client keyword OpenSSH 9.2 accepts (checked against
// `ssh -G` by the conformance test), plus a few later ones (tag,
// channeltimeout, obscurekeystroketiming, refuseconnection) so that a
// configuration written for a newer ssh is not refused. Anything else is
// "Bad configuration option", as in OpenSSH.
var keywords = map[string]keyword{
	// read by prova
	"hostname": kwUsed, "user": kwUsed, "port": kwUsed, "identityfile": kwUsed,
	"identitiesonly": kwUsed, "proxyjump": kwUsed, "proxycommand": kwUsed,
	"userknownhostsfile": kwUsed, "stricthostkeychecking": kwUsed,
	"connecttimeout": kwUsed, "serveraliveinterval": kwUsed, "serveralivecountmax": kwUsed,
	"identityagent": kwUsed, "certificatefile": kwUsed, "canonicalizehostname": kwUsed,
	"ignoreunknown": kwUsed, "batchmode": kwUsed,

	// change where or how ssh connects; prova cannot honour them
	"hostkeyalias": kwUnsupported, "localcommand": kwUnsupported,
	"proxyusefdpass": kwUnsupported, "knownhostscommand": kwUnsupported,
	"bindaddress": kwUnsupported, "bindinterface": kwUnsupported,
	"globalknownhostsfile": kwUnsupported, "remotecommand": kwUnsupported,
	"pkcs11provider": kwUnsupported, "securitykeyprovider": kwUnsupported,
	"refuseconnection": kwUnsupported,

	// known, and without effect on a non-interactive command runner
	"addkeystoagent": kwIgnored, "addressfamily": kwIgnored,
	"canonicaldomains": kwIgnored, "canonicalizefallbacklocal": kwIgnored,
	"canonicalizemaxdots": kwIgnored, "canonicalizepermittedcnames": kwIgnored,
	"casignaturealgorithms": kwIgnored, "checkhostip": kwIgnored, "ciphers": kwIgnored,
	"clearallforwardings": kwIgnored, "compression": kwIgnored, "connectionattempts": kwIgnored,
	"controlmaster": kwIgnored, "controlpath": kwIgnored, "controlpersist": kwIgnored,
	"dynamicforward": kwIgnored, "enableescapecommandline": kwIgnored,
	"enablesshkeysign": kwIgnored, "escapechar": kwIgnored, "exitonforwardfailure": kwIgnored,
	"fingerprinthash": kwIgnored, "forkafterauthentication": kwIgnored,
	"forwardagent": kwIgnored, "forwardx11": kwIgnored, "forwardx11timeout": kwIgnored,
	"forwardx11trusted": kwIgnored, "gatewayports": kwIgnored,
	"gssapiauthentication": kwIgnored, "gssapidelegatecredentials": kwIgnored,
	"gssapikeyexchange": kwIgnored, "gssapiclientidentity": kwIgnored,
	"gssapiserveridentity": kwIgnored, "gssapirenewalforcesrekey": kwIgnored,
	"gssapitrustdns": kwIgnored, "gssapikexalgorithms": kwIgnored,
	"hashknownhosts": kwIgnored, "hostbasedacceptedalgorithms": kwIgnored,
	"hostbasedkeytypes": kwIgnored, "hostbasedauthentication": kwIgnored,
	"hostkeyalgorithms": kwIgnored, "ipqos": kwIgnored,
	"kbdinteractiveauthentication": kwIgnored, "kbdinteractivedevices": kwIgnored,
	"challengeresponseauthentication": kwIgnored, "skeyauthentication": kwIgnored,
	"tisauthentication": kwIgnored, "kexalgorithms": kwIgnored, "localforward": kwIgnored,
	"loglevel": kwIgnored, "logverbose": kwIgnored, "macs": kwIgnored,
	"nohostauthenticationforlocalhost": kwIgnored, "numberofpasswordprompts": kwIgnored,
	"passwordauthentication": kwIgnored, "permitlocalcommand": kwIgnored,
	"permitremoteopen": kwIgnored, "preferredauthentications": kwIgnored,
	"pubkeyacceptedalgorithms": kwIgnored, "pubkeyacceptedkeytypes": kwIgnored,
	"pubkeyauthentication": kwIgnored, "rekeylimit": kwIgnored, "remoteforward": kwIgnored,
	"requesttty": kwIgnored, "requiredrsasize": kwIgnored, "revokedhostkeys": kwIgnored,
	"sendenv": kwIgnored, "sessiontype": kwIgnored, "setenv": kwIgnored, "stdinnull": kwIgnored,
	"streamlocalbindmask": kwIgnored, "streamlocalbindunlink": kwIgnored,
	"syslogfacility": kwIgnored, "tcpkeepalive": kwIgnored, "keepalive": kwIgnored,
	"tunnel": kwIgnored, "tunneldevice": kwIgnored, "updatehostkeys": kwIgnored,
	"verifyhostkeydns": kwIgnored, "visualhostkey": kwIgnored, "xauthlocation": kwIgnored,
	"protocol": kwIgnored, "cipher": kwIgnored, "useroaming": kwIgnored, "usersh": kwIgnored,
	"fallbacktorsh": kwIgnored, "globalknownhostsfile2": kwIgnored,
	"userknownhostsfile2": kwIgnored, "useprivilegedport": kwIgnored,
	"identityfile2": kwIgnored, "dsaauthentication": kwIgnored, "smartcarddevice": kwIgnored,
	"tag": kwIgnored, "channeltimeout": kwIgnored, "obscurekeystroketiming": kwIgnored,

	// OpenSSH: `Unsupported option "..."`, a warning
	"rhostsrsaauthentication": kwDeprecated, "rsaauthentication": kwDeprecated,
	"compressionlevel": kwDeprecated, "afstokenpassing": kwDeprecated,
	"kerberosauthentication": kwDeprecated, "kerberostgtpassing": kwDeprecated,
}
