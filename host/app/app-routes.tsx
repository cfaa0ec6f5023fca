import { createRoutesFromElements, Route, type RouteObject } from 'react-router-dom';
import {
  LOCATIONS_PAGE_PATH,
  RELEASES_PAGE_PATH,
  SERVICE_STATUS_PATH,
  SIGN_IN_PATH,
  SLOT_INSPECTOR_PATH,
} from '../../shared';
import { Layout } from '../layout/layout';
import { RequireAuth } from '../layout/require-auth';
import { DashboardPage } from '../pages/dashboard-page';
import { LocationsPage } from '../pages/locations-page';
import { NotFoundPage } from '../pages/not-found-page';
import { RecordEditPage } from '../pages/record-edit-page';
import { RecordViewPage } from '../pages/record-view-page';
import { ReleasesPage } from '../pages/releases-page';
import { ResourceListPage } from '../pages/resource-list-page';
import { ServiceStatusPage } from '../pages/service-status-page';
import { SignInPage } from '../pages/sign-in-page';
import { SlotInspectorPage } from '../pages/slot-inspector-page';

/**
 * The client routes: the sign-in page, the service status, the dashboard, a resource's list, record view and record
 * edit pages, the slot inspector, and the operators' releases page.
 * Every page is in the shell's chunks, the releases page too: the host's budget counts every chunk the entry may
 * load, and a chunk of its own would cost more (about 1.4 KB gzip of chunk overhead) than leaving it in.
 * The server answers each with index.html. A route table rather than `<Routes>`, because only a data router
 * (createBrowserRouter) can hold a navigation back while a form has unsaved changes.
 */
export const APP_ROUTES: RouteObject[] = createRoutesFromElements(
  <Route element={<Layout />}>
    <Route path={SIGN_IN_PATH} element={<SignInPage />} />
    <Route path={SERVICE_STATUS_PATH} element={<ServiceStatusPage />} />
    <Route element={<RequireAuth />}>
      <Route index element={<DashboardPage />} />
      <Route path="/resources/:resource" element={<ResourceListPage />} />
      <Route path="/resources/:resource/:id" element={<RecordViewPage />} />
      <Route path="/resources/:resource/:id/edit" element={<RecordEditPage />} />
      <Route path={SLOT_INSPECTOR_PATH} element={<SlotInspectorPage />} />
      <Route path={LOCATIONS_PAGE_PATH} element={<LocationsPage />} />
      <Route path={RELEASES_PAGE_PATH} element={<ReleasesPage />} />
    </Route>
    <Route path="*" element={<NotFoundPage />} />
  </Route>,
);
