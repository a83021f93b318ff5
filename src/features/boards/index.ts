/** What other features use of the feed builder's folder: deleting a feed from its page. */
export { DeleteFeedButton, FeedPageDelete } from './delete-feed';
/** The category tabs bar with counts (the search page shows it too). */
export { FeedTabsBar } from './feed-toolbar';
