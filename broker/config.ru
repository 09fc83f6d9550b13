# The official Pact Broker (the pact_broker gem) as `npm run test:broker` runs it: SQLite at
# PACT_BROKER_DATABASE_URL, basic auth with PACT_BROKER_BASIC_AUTH_USERNAME and
# PACT_BROKER_BASIC_AUTH_PASSWORD (the gem reads them from the environment, and PACT_BROKER_PUBLIC_HEARTBEAT,
# which opens the heartbeat to all).
require "pact_broker"

app = PactBroker::App.new do |config|
  config.database_url = ENV.fetch("PACT_BROKER_DATABASE_URL")
  config.basic_auth_enabled = config.basic_auth_credentials_provided?
  config.log_stream = :stdout
  config.seed_example_data = false
end

run app
