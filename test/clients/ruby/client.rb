# frozen_string_literal: true

# A v1 client written the way the Ruby gem called the live service (mllocs/zoomus,
# lib/zoomus/actions/*.rb and lib/zoomus/utils.rb, and its fork courtroomconnect/zoomus): every param
# in the query string of a POST with an empty body (HTTParty's `:query =>`), Time values for report
# dates turned into "%FT%TZ" (Utils.process_datetime_params!), meeting_update sending only id and
# host_id besides what changes, webinar_create only host_id and topic, answers read with
# JSON.parse. Our own program over net/http. It prints one JSON object of what it read.
#
# Environment: V1_BASE_URL (…/v1), V1_API_KEY, V1_API_SECRET, OWNER_EMAIL, REPORT_FROM, REPORT_TO.

require 'json'
require 'net/http'
require 'time'
require 'uri'

def fail!(message)
  warn message
  exit 1
end

def post(path, options)
  query = URI.encode_www_form(options.merge(api_key: ENV.fetch('V1_API_KEY'), api_secret: ENV.fetch('V1_API_SECRET')))
  uri = URI("#{ENV.fetch('V1_BASE_URL')}#{path}?#{query}")
  response = Net::HTTP.start(uri.host, uri.port) { |http| http.request(Net::HTTP::Post.new(uri)) }
  answer = JSON.parse(response.body)
  fail!("#{path}: v1 error #{answer['error']['code']} #{answer['error']['message']}") if answer['error']
  answer
end

# Utils.process_datetime_params!: a Time is sent as "%FT%TZ", the caller's clock as it is.
def datetime_params(options, *keys)
  keys.each { |key| options[key] = options[key].strftime('%FT%TZ') if options[key].is_a?(Time) }
  options
end

owner = post('/user/getbyemail', email: ENV.fetch('OWNER_EMAIL'))

meeting = post('/meeting/create', host_id: owner['id'], type: 3, topic: 'Typed Ruby')
updated = post('/meeting/update', id: meeting['id'], host_id: owner['id'], topic: 'Renamed by Ruby')
read = post('/meeting/get', id: meeting['id'], host_id: owner['id'])

webinar = post('/webinar/create', host_id: owner['id'], topic: 'Typed Ruby webinar')

from = Time.parse("#{ENV.fetch('REPORT_FROM')} 00:00:00")
to = Time.parse("#{ENV.fetch('REPORT_TO')} 00:00:00")
report = post('/report/getaccountreport', datetime_params({ from: from, to: to }, :from, :to))
user_report = post('/report/getuserreport', datetime_params({ user_id: owner['id'], from: from, to: to }, :from, :to))
dashboard = post('/metrics/meetings', type: 2, from: ENV.fetch('REPORT_FROM'), to: ENV.fetch('REPORT_TO'))

# Ruby compares what it reads: a number and a string never compare equal, nor order.
fail!('page_number is not a number') unless dashboard['page_number'].is_a?(Integer) && dashboard['page_count'].is_a?(Integer)
fail!('meeting id is not a number') unless meeting['id'].is_a?(Integer)

puts JSON.generate(
  owner_id: owner['id'],
  meeting_id: meeting['id'],
  updated_id: updated['id'],
  meeting_type: read['type'],
  meeting_topic: read['topic'],
  webinar_id: webinar['id'],
  webinar_type: webinar['type'],
  report_sent_from: from.strftime('%FT%TZ'),
  report_from: report['from'],
  report_to: report['to'],
  report_hosts: report['total_records'],
  user_report_meetings: user_report['meetings'].map { |m| m['number'] },
  dashboard_ids: dashboard['meetings'].map { |m| m['id'] }
)
