export { registerDemoContent } from './register-demo-content';
export { withDemo } from './with-demo';
export { seedDemoData, DEMO_USERNAME, type DemoOptions, type DemoAccount } from './seed-demo-data';
export { demoSlots, DEMO_SIGN_IN_HINT } from './demo-slots';
export { ArticlesResource, ARTICLE_GROUPS } from './articles-resource';
export { AuthorsResource, AUTHOR_GROUPS } from './authors-resource';
export { CONTENT_MODULE, OVERVIEW_DASHBOARD } from './demo-navigation';
export { DEMO_TENANTS } from './demo-records';
