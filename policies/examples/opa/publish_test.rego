package agentjail_test

import rego.v1

import data.agentjail

# testdata/publish/data.json is the input agentjail derives, printed by
#   agentjail try --offline --json 'cd web && sudo npm publish'
test_publish_fixture_asks if {
	"team.publish" in {m.id | some m in agentjail.ask} with input as data.testdata.publish
}
