module Zoomus
  class Error < StandardError; end
  class GatewayTimeout < StandardError; end
end
