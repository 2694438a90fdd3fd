/**
 * What each request parameter is, for the OpenAPI document: its meaning and units, not its error messages
 * (the schema states the rules). Keyed by parameter name; `<operation>.<parameter>` where an operation
 * gives a name its own meaning. A parameter with no entry fails the OpenAPI test.
 */
export const parameterDescriptions: Record<string, string> = {
  filter:
    'Comma-delimited IMEIs of the vehicles wanted; blanks and spaces around commas are ignored. Absent: every vehicle linked to the key.',
  map_api_key:
    "The map provider's key (Google Static Maps, or a tile server without a configured key), passed on with the request and never " +
    'stored or logged; Amazon Location and the built-in offline map take any value.',
  width: 'Width of the picture in pixels.',
  height: 'Height of the picture in pixels.',
  zoom: 'Map zoom level (1: the world, 20: a building).',
  start_date: "First calendar day of the range, yyyy-mm-dd, in the user's GMT offset (included).",
  end_date: "Last calendar day of the range, yyyy-mm-dd, in the user's GMT offset (included); not before start_date.",
  start_datetime: "Start of the time range, yyyy-mm-dd hh:mm:ss in the user's GMT offset (included).",
  end_datetime:
    "End of the time range, yyyy-mm-dd hh:mm:ss in the user's GMT offset (included); not before start_datetime and at most 7 days " +
    'after it.',
  'getPositions.limit':
    'The most positions to answer, 1 to 10,000 (default 10,000); when more exist, the answer says where the next call starts ' +
    '(next_start_datetime, and next_cursor when limit or cursor was sent).',
  limit:
    'Paging (docs/paging.md): the most records this page answers, 1 to 10,000. Sending it, or cursor, asks for pages: an answer ' +
    'that left records out carries next_cursor, and a page also ends early at the size limit. Without either, the whole answer ' +
    'comes at once, or a 422 when it would be too large.',
  'getJobCards.limit':
    'Paging (docs/paging.md): the most cards this page answers, 1 to 1000; the pages together answer the 1000 newest, as one ' +
    'answer does. An answer that left cards out carries next_cursor.',
  'getTrips.limit':
    'Paging (docs/paging.md): the most trips this page answers, 1 to 10,000; a vehicle whose trips go on to the next page is ' +
    'listed again there with the rest. An answer that left trips out carries next_cursor.',
  cursor:
    "The previous answer's next_cursor, sent with the same other parameters: opaque, bound to the API key's user, the " +
    'operation and those parameters; any other use answers 400. Empty or absent: the first page.',
  from_date: "Only cards created on or after this calendar day (yyyy-mm-dd, the user's offset); empty means no bound.",
  to_date: "Only cards created on or before this calendar day (yyyy-mm-dd, the user's offset); empty means no bound.",
  external_reference: 'Only cards with this external reference (the ReferenceNumber of their document); empty means all.',
  expense_name: "The expense type's name, trimmed; unique per user, compared case-insensitively.",
  type: "An expense type: 2 (Fuel) or one of the user's own types.",
  'editExpenseType.type': "One of the user's own expense types (Fuel, type 2, cannot be renamed).",
  'deleteExpenseType.type': "One of the user's own expense types (Fuel, type 2, cannot be deleted).",
  'editExpenseSlip.type':
    "The slip's own type, accepted so that a slip read back can be sent whole; a slip's type cannot change, so any other type is refused.",
  vehicle_uid: "A vehicle linked to the key's user (vehicle_uid of getVehicles).",
  'addRoute.vehicle_uid': "A vehicle linked to the key's user to schedule onto the route; blank or null for none.",
  amount: 'The amount paid, a decimal of at most 2 places (as text, or a JSON number read as its text); kept exactly as given.',
  'addFuelFillSlip.amount': 'The amount paid, a decimal of at most 2 places; 0 when left out.',
  qty: 'The quantity (litres for fuel), a decimal of at most 3 places; 0 when left out.',
  'addFuelFillSlip.qty': 'The litres on the slip, a decimal of at most 3 places, greater than 0.',
  event_datetime: "When the expense happened, in the user's local time: yyyy-mm-dd hh:mm:ss, or yyyy-mm-dd for its midnight.",
  slip_number: 'The number printed on the slip.',
  comment: 'Free text about the slip.',
  slip_uid: "A slip on a vehicle linked to the key's user.",
  event_uid: "A detected fuel fill of a vehicle linked to the key's user (event_uid of getFuelFillReport).",
  operator_uid: "One of the user's operators.",
  fullname: "The driver's full name.",
  id_number: "The driver's identity document number.",
  tag_id: "The driver's identification tag as the tracking devices read it; unique across all users.",
  default_trip_type: "Id of the driver's default trip type, a whole number of 0 or more.",
  active_flag: '1: active, 0: inactive.',
  mobile_number: 'Mobile phone number.',
  home_number: 'Home phone number.',
  employee_number: "The employer's number for the driver.",
  current_points: "Demerit points on the driver's licence, as text.",
  home_address: 'Postal or street address.',
  next_of_kin: "Name of the driver's next of kin.",
  next_of_kin_contact_number: 'Phone number of the next of kin.',
  email_address: 'E-mail address; empty for none.',
  driver_licence_expiry_datetime:
    'Expiry of the driving licence, yyyy-mm-dd (or yyyy-mm-dd 00:00:00, as the record reads it back); 2001-01-01 for none.',
  pdp_expiry_datetime: 'Expiry of the professional driving permit, yyyy-mm-dd (or yyyy-mm-dd 00:00:00); 2001-01-01 for none.',
  dgp_expiry_datetime: 'Expiry of the dangerous goods permit, yyyy-mm-dd (or yyyy-mm-dd 00:00:00); 2001-01-01 for none.',
  mc_expiry_datetime: 'Expiry of the medical certificate, yyyy-mm-dd (or yyyy-mm-dd 00:00:00); 2001-01-01 for none.',
  user_location_uid: "One of the user's saved locations.",
  description: "The location's name, shown wherever a vehicle is placed in it.",
  latitude: "Latitude of the point (a polygon's reference point), decimal degrees.",
  longitude: "Longitude of the point (a polygon's reference point), decimal degrees.",
  color: 'Colour on the map (free text, e.g. green); blank means blue.',
  radius: "Radius of a point's geofence in km.",
  location_type: 'point (a centre and a radius) or polygon (its points).',
  points:
    "A polygon's vertices in order, at least 3 {lat, lng}: a JSON array, or its JSON text (as a form sends it, and as the record " +
    'reads back); ignored for a point.',
  icon: 'The icon shown for the location (free text); blank for none.',
  speed: 'Speed limit in the zone, km/h; 0 for none.',
  no_go: '1: a no-go zone, which vehicles must not enter.',
  only_push: '1: events in the zone are sent as push notifications only.',
  job_card_uid: "One of the user's job cards.",
  'editJobCard.job_card_uid':
    'The job card to replace: in the query string, or as a form field when the body is a form (a raw JSON body is the document itself).',
  payload: 'The job card document as JSON text (a form field); a raw JSON object body is the document itself.',
  route_name: "The route's name.",
  stops:
    'The stops in order, 2 to 25: each {"user_location_uid": id} of a saved location, or {"lat", "lng", "description"?} of a point ' +
    '(a saved location within 50 m is reused, otherwise the point is saved). A JSON array, or its JSON text in a form.',
  route_uid: "One of the user's routes.",
};
