import { Route, Routes } from 'react-router-dom';
import { Layout } from '../layout/layout';
import { RequireAuth } from '../layout/require-auth';
import { DashboardPage } from '../pages/dashboard-page';
import { LoginPage } from '../pages/login-page';
import { NotFoundPage } from '../pages/not-found-page';
import { RecordEditPage } from '../pages/record-edit-page';
import { RecordViewPage } from '../pages/record-view-page';
import { ResourceListPage } from '../pages/resource-list-page';

/** The client routes (DESIGN.md point 15). The server answers each with index.html. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route path="/login" element={<LoginPage />} />
        <Route element={<RequireAuth />}>
          <Route index element={<DashboardPage />} />
          <Route path="/resources/:resource" element={<ResourceListPage />} />
          <Route path="/resources/:resource/:id" element={<RecordViewPage />} />
          <Route path="/resources/:resource/:id/edit" element={<RecordEditPage />} />
        </Route>
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
