module Zoomus
  module Interface
  end
end
