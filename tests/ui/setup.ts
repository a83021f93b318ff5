// jsdom does not implement scrolling; the router restores scroll on navigation.
window.scrollTo = () => {};
