/** Messages of the movie section's resources (react-admin shape: resources.<resource>.{name, fields, …}). */
const movie = {
  'movie/review': {
    name: 'Review queue',
    empty: 'Nothing awaiting review',
    emptyHint: 'Items submitted for review will appear here.',
  },
};
export default movie;
