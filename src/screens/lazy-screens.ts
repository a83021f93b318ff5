import type { LazyScreens } from '../router/route-tree';
import type { createLazyPageLoader } from '../shell/lazy-page';

/** The screens loaded on demand, each its own chunk. */
export function createLazyScreens(lazyPage: ReturnType<typeof createLazyPageLoader>): LazyScreens {
  return {
    signIn: lazyPage(() => import('./auth/sign-in-page').then((m) => m.SignInPage)),
    signUp: lazyPage(() => import('./auth/sign-up-page').then((m) => m.SignUpPage)),
    forgotPassword: lazyPage(() =>
      import('./auth/forgot-password-page').then((m) => m.ForgotPasswordPage),
    ),
    resetPassword: lazyPage(() =>
      import('./auth/reset-password-page').then((m) => m.ResetPasswordPage),
    ),
    notifications: lazyPage(() =>
      import('../features/notifications/notifications-page').then((m) => m.NotificationsPage),
    ),
    customFeed: lazyPage(() =>
      import('../features/boards/custom-feed-builder').then((m) => m.CustomFeedPage),
    ),
    feedManager: lazyPage(() =>
      import('../features/boards/feed-manager-page').then((m) => m.FeedManagerPage),
    ),
    feed: lazyPage(() => import('../features/boards/feed-page').then((m) => m.FeedPage)),
    connectRss: lazyPage(() =>
      import('../features/sources/connect-rss-page').then((m) => m.ConnectRssPage),
    ),
    connectWebsite: lazyPage(() =>
      import('../features/sources/websites-page').then((m) => m.WebsitesPage),
    ),
    feedSettings: lazyPage(() =>
      import('../features/sources/feed-settings-page').then((m) => m.FeedSettingsPage),
    ),
    preview: lazyPage(() =>
      import('../features/documents/preview-page').then((m) => m.PreviewPage),
    ),
    search: lazyPage(() => import('../features/search/search-page').then((m) => m.SearchPage)),
    searchFull: lazyPage(() =>
      import('../features/search/search-full-page').then((m) => m.SearchFullPage),
    ),
    assistantFull: lazyPage(() =>
      import('../features/assistant/assistant-page').then((m) => m.AssistantPage),
    ),
    assistantHistory: lazyPage(() =>
      import('../features/assistant/history/history-screen').then((m) => m.AssistantHistoryScreen),
    ),
    bookmarks: lazyPage(() =>
      import('../features/tags/needlbox-page').then((m) => m.BookmarksPage),
    ),
    tags: lazyPage(() => import('../features/tags/needlbox-page').then((m) => m.TagsPage)),
    settings: lazyPage(() =>
      import('../features/settings/settings-page').then((m) => m.SettingsPage),
    ),
    userSettings: lazyPage(() =>
      import('../features/settings/user-settings-page').then((m) => m.UserSettingsPage),
    ),
    tagsManager: lazyPage(() =>
      import('../features/tags/tags-manager-page').then((m) => m.TagsManagerPage),
    ),
    contacts: lazyPage(() =>
      import('../features/people/contacts-page').then((m) => m.ContactsPage),
    ),
    contact: lazyPage(() => import('../features/people/person-page').then((m) => m.PersonPage)),
    notebooks: lazyPage(() =>
      import('../features/notebooks/notebooks-page').then((m) => m.NotebooksPage),
    ),
    notebook: lazyPage(() =>
      import('../features/notebooks/notebook-page').then((m) => m.NotebookPage),
    ),
    notePreview: lazyPage(() =>
      import('../features/notebooks/notebook-page').then((m) => m.NotePreviewPage),
    ),
    sharedDocument: lazyPage(() =>
      import('../features/uploads/shared-document-page').then((m) => m.SharedDocumentPage),
    ),
    documentViewer: lazyPage(() =>
      import('../features/uploads/viewer-page').then((m) => m.DocumentViewerPage),
    ),
    imageViewer: lazyPage(() =>
      import('../features/uploads/viewer-page').then((m) => m.ImageViewerPage),
    ),
  };
}
