import type { StateCreator } from 'zustand/vanilla';
import { toAppError } from '../bridge/apiError.js';
import { sortTasks } from './eventReducer.js';
import type { AppState, StoreDeps, TasksActions, TasksData } from './types.js';

export const TASK_LIST_LIMIT = 200;

export const initialTasksData: TasksData = { tasks: [], tasksError: null };

export const createTasksSlice =
  (deps: StoreDeps): StateCreator<AppState, [], [], TasksData & TasksActions> =>
  (set) => ({
    ...initialTasksData,

    async loadTasks() {
      try {
        const { tasks } = await deps.api['tasks.list']({ limit: TASK_LIST_LIMIT });
        set({ tasks: sortTasks(tasks.slice()), tasksError: null });
      } catch (error) {
        set({ tasksError: toAppError(error) });
      }
    },
  });
